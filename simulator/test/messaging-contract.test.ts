// Every answer of the messaging, verification and carrier operations matches what /openapi.json
// documents for it: success bodies their schema, refusals a documented status and code.
import { describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { expectDocumentedAnswer } from './documented.ts';

const CHANNEL = 'KA01PFacme0000000000000001';
const ORDER = { ChannelId: CHANNEL, TemplateId: 'KA01TPacmeorder000000000001', Variables: { 고객명: 'a', 주문번호: 'b' } };

describe('messaging answers match the documented schemas and statuses', () => {
  it('for a tour of every new operation, including refusals', async () => {
    const h = harness();
    const a = (p: string) => h.acme(p);
    const msg = (await h.call('POST', a('/messages'), { To: '01012345678', From: '07012340001', Body: 'hi' })).json;
    const ver = (await h.call('POST', '/v2/verifications', { to: '01012345678' })).json;
    await h.sim.clock.advance({ seconds: 5 });
    const tour: [string, string, unknown?, string?][] = [
      ['POST', a('/messages'), { To: '01012345678', From: '07012340001', Body: 'x', Subject: 's', MediaUrl: ['https://i.example/a.jpg'] }],
      ['POST', a('/messages'), { To: '01012345678', From: '07012340001', Kakao: ORDER, Fallback: { Type: 'lms' } }],
      ['POST', a('/messages'), { To: '01012345678', From: '07012340001', Kakao: { ...ORDER, TemplateId: 'KA01TPacmeold00000000000001', Variables: { date: 'd' } } }],
      ['POST', a('/messages'), { To: '01012345678', From: '07012340001', Kakao: { ...ORDER, Variables: {} } }],
      ['POST', a('/messages'), { To: '01055550101', From: '07012340001', Body: 'x' }],
      ['POST', a('/messages'), { To: '+1 2125550100', From: '07012340001', Body: 'x' }],
      ['POST', a('/messages'), { To: '01012345678', From: '07012349001', Body: 'x' }],
      ['POST', a('/messages'), { To: '01012345678', From: '07012340001', Type: 'sms', Body: 'x'.repeat(91) }],
      ['POST', a('/messages'), { To: '01012345678', From: '07012340001', Body: 'x', MediaUrl: ['https://i.example/a.gif'] }],
      ['POST', a('/messages'), {}],
      ['GET', a('/messages?type=sms&status=sent&number=01012345678')],
      ['GET', a('/messages?number=bad')],
      ['GET', a(`/messages/${msg.messageId}`)],
      ['GET', a('/messages/MGnone')],
      ['POST', '/v2/verifications', { to: '01012345678', channel: 'call', codeLength: 4 }],
      ['POST', '/v2/verifications', { to: '01055550101' }],
      ['POST', '/v2/verifications', { to: '01012345678', from: '07012349001' }],
      ['GET', '/v2/verifications?status=pending&channel=sms&to=01012345678&createdAfter=2026-03-01T00:00:00Z'],
      ['GET', `/v2/verifications/${ver.verificationId}`],
      ['POST', `/v2/verifications/${ver.verificationId}/check`, { code: '12' }],
      ['POST', `/v2/verifications/${ver.verificationId}/check`, { code: '000000' }],
      ['POST', `/v2/verifications/${ver.verificationId}/cancel`],
      ['POST', `/v2/verifications/${ver.verificationId}/cancel`],
      ['GET', '/v2/verifications/VEnone'],
      ['GET', '/v2/verifications', undefined, 'none'],
      ['GET', '/_sim/carrier/magic-numbers'],
      ['POST', '/_sim/carrier/scripts', { number: '01030000001', outcome: 'busy', types: ['call'], delaySeconds: 1, times: 2 }],
      ['GET', '/_sim/carrier/scripts'],
      ['DELETE', '/_sim/carrier/scripts/cs_9'],
      ['DELETE', '/_sim/carrier/scripts/cs_1'],
      ['DELETE', '/_sim/carrier/scripts'],
      ['GET', '/_sim/carrier/deliveries?status=delivered'],
      ['GET', '/_sim/carrier/phones/01012345678'],
      ['POST', '/_sim/carrier/inbound', { from: '01022223333', to: '07012340001', body: 'hi', subject: 's' }],
      ['POST', '/_sim/carrier/inbound', { from: '01022223333', to: '07099990000', body: 'hi' }],
      ['GET', `/_sim/accounts/${ACME.accountId}/kakao-templates`],
      ['POST', `/_sim/accounts/${ACME.accountId}/kakao-templates`, { templateId: 'TPnew', channelId: CHANNEL, body: 'Hi #{n}' }],
      ['POST', `/_sim/accounts/${ACME.accountId}/kakao-templates`, { templateId: 'TPnew', channelId: CHANNEL, body: 'Hi #{n}' }],
      ['POST', `/_sim/accounts/${ACME.accountId}/kakao-templates`, { channelId: CHANNEL, body: 'Hi #{n}', variables: ['m'] }],
      ['PATCH', `/_sim/accounts/${ACME.accountId}/kakao-templates/TPnew`, { status: 'REJECTED' }],
      ['PATCH', `/_sim/accounts/${BISTRO.accountId}/kakao-templates/TPnew`, { status: 'APPROVED' }],
      ['DELETE', `/_sim/accounts/${ACME.accountId}/kakao-templates/TPnew`],
      ['GET', `/_sim/accounts/${ACME.accountId}/message-usage`],
      ['GET', `/_sim/accounts/${ACME.accountId}/message-quota`],
      ['GET', '/_sim/accounts/ACnone/message-quota'],
    ];
    const seen = new Set<string>();
    for (const [method, url, body, auth] of tour) {
      const r = await h.call(method, url, body, auth === 'none' ? { key: null } : {});
      const operationId = expectDocumentedAnswer(method, url, r);
      if (operationId) seen.add(operationId);
    }
    expect([...seen].sort()).toEqual(
      [
        'sendMessage', 'listMessages', 'getMessage',
        'createVerification', 'listVerifications', 'getVerification', 'checkVerification', 'cancelVerification',
        'simListMagicNumbers', 'simAddCarrierScript', 'simListCarrierScripts', 'simRemoveCarrierScript', 'simClearCarrierScripts',
        'simListCarrierDeliveries', 'simGetPhone', 'simInjectInboundMessage',
        'simListKakaoTemplates', 'simCreateKakaoTemplate', 'simUpdateKakaoTemplate', 'simDeleteKakaoTemplate',
        'simListMessageUsage', 'simGetMessageQuota',
      ].sort(),
    );
  });
});
