// Every operation the simulator serves. A new resource family adds its routes here.
import type { Operation } from './core/operation.ts';
import { operations as blockLists } from './resources/blocklists/routes.ts';
import { operations as numbers } from './resources/numbers/routes.ts';
import { operations as emailDomains } from './resources/email-domains/routes.ts';
import { operations as messages } from './resources/messages/routes.ts';
import { operations as verifications } from './resources/verifications/routes.ts';
import { operations as webhooks } from './resources/webhooks/routes.ts';
import { operations as usage } from './resources/usage/routes.ts';
import { operations as kakaoChannels } from './resources/kakao-channels/routes.ts';
import { operations as sipEndpoints } from './resources/sip-endpoints/routes.ts';
import { operations as sipAuth } from './resources/sip-auth/routes.ts';
import { operations as callFlows } from './resources/call-flows/routes.ts';
import { operations as calls } from './resources/calls/routes.ts';
import { operations as messengerControl } from './control/messenger.ts';
import { operations as control } from './control/routes.ts';
import { operations as accountControl } from './control/accounts.ts';
import { operations as geoipControl } from './control/geoip.ts';
import { operations as blockListControl } from './control/blocklists.ts';
import { operations as dnsControl } from './control/dns.ts';
import { operations as emailProviderControl } from './control/email-provider.ts';
import { operations as carrierControl } from './control/carrier.ts';
import { operations as messagingControl } from './control/messaging.ts';
import { operations as imageHostControl } from './control/image-host.ts';
import { operations as usageControl } from './control/usage.ts';
import { operations as webhookControl } from './control/webhooks.ts';
import { operations as sipAuthControl } from './control/sip-auth.ts';
import { operations as callFlowControl } from './control/call-flows.ts';
import { operations as meta } from './meta.ts';

export function allOperations(): readonly Operation[] {
  return [
    ...numbers,
    ...blockLists,
    ...emailDomains,
    ...messages,
    ...verifications,
    ...webhooks,
    ...usage,
    ...kakaoChannels,
    ...sipEndpoints,
    ...sipAuth,
    ...callFlows,
    ...calls,
    ...control,
    ...accountControl,
    ...geoipControl,
    ...blockListControl,
    ...dnsControl,
    ...emailProviderControl,
    ...carrierControl,
    ...messagingControl,
    ...imageHostControl,
    ...usageControl,
    ...messengerControl,
    ...webhookControl,
    ...sipAuthControl,
    ...callFlowControl,
    ...meta,
  ];
}
