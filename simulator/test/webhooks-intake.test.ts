// The webhook engine's intake is the typed event catalogue, not a list of its own: a family it
// has never heard of declares a subscribable event, and an account webhook subscribed to it
// receives it, with the engine, the webhooks family and the list's other entries unchanged.
// The engine and the account webhooks meet through the engine's directory registration, so
// neither imports the other.
import { afterEach, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { defineFamily } from '../resources/family.ts';
import { event } from '../core/events.ts';
import type { ModelScope } from '../core/scope.ts';
import { build } from '../registry.ts';
import { Runtime } from '../runtime.ts';
import { FAMILIES } from '../resources/index.ts';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile } from '../fixtures.ts';
import type { WebhooksModel } from '../resources/webhooks/model.ts';
import type { WebhookEngine } from '../peers/webhooks/engine.ts';
import { ACME } from './helpers.ts';
import { closeAllReceivers, startReceiver } from './receivers.ts';

const chimeEvents = { 'chime.rang': event(Type.Object({ ChimeId: Type.String(), Loud: Type.String() }), { subscribable: true }) };

class Chimes {
  constructor(private readonly scope: ModelScope<{}, typeof chimeEvents>) {}

  ring(accountId: string, id: string): void {
    this.scope.events.emit('chime.rang', { accountId, resourceId: id, payload: { ChimeId: id, Loud: 'yes' } });
  }
}

const chimes = defineFamily({ key: 'chimes', needs: {}, events: chimeEvents, create: (scope) => new Chimes(scope) });

/** The entries the engine and the account webhooks need, then the newcomer, in list order. */
function house(): Runtime & { chimes: Chimes; webhooks: WebhooksModel; webhookEngine: WebhookEngine } {
  const kept = FAMILIES.filter((f) => ['accounts', 'numbers', 'webhooks', 'webhookEngine'].includes(f.key));
  return new Runtime(loadFixtureFile(DEFAULT_FIXTURE_PATH), 1, build([...kept, chimes])) as never;
}

afterEach(closeAllReceivers);

describe('the webhook engine hears every declared event', () => {
  it('a new family\'s subscribable event joins the enum and reaches a subscribed webhook, signed, as form fields', async () => {
    const rt = house();
    expect(rt.listed.events).toContain('chime.rang');
    const receiver = await startReceiver();
    rt.webhooks.create(ACME.accountId, { url: receiver.url, events: ['chime.rang'] });
    rt.chimes.ring(ACME.accountId, 'CH1');
    await rt.io.settled();
    expect(receiver.requests.map((r) => r.fields)).toEqual([{ ChimeId: 'CH1', Loud: 'yes' }]);
    expect(receiver.requests[0]!.headers['x-signature']).toMatch(/\S/);
    expect(rt.webhookEngine.listDeliveries({ event: 'chime.rang' }).map((d) => [d.resourceId, d.status])).toEqual([['CH1', 'delivered']]);
    await rt.webhookEngine.close();
  });

  it('an unsubscribed account gets nothing: the engine asks the registered directory', () => {
    const rt = house();
    rt.chimes.ring(ACME.accountId, 'CH2');
    expect(rt.webhookEngine.listDeliveries({ event: 'chime.rang' })).toEqual([]);
  });
});
