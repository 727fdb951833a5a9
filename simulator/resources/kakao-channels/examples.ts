// Request examples of messenger channels, templates and brand assets (shown in /openapi.json;
// sent in document order against the default fixture by openapi-examples.test.ts). The
// fixture's messenger has the channel "acmelogistics" (manager 010-7777-0001) with Acme's
// notification templates, and "bistroseoul".
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const CHANNEL = 'KA01PFacme0000000000000001';
/** A 1x1 PNG, base64: the bytes of the `image` part. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export const examples: Record<string, OperationExample[]> = {
  listKakaoChannelCategories: [{ name: 'acme', summary: 'Category codes a connection takes', params: acme }],
  listKakaoChannels: [{ name: 'connected', summary: 'Connected channels', params: acme, query: { status: 'connected' } }],
  createKakaoChannel: [
    {
      name: 'acme',
      summary: 'Connect the channel with the token its manager\'s phone received (request it first: requestKakaoChannelToken)',
      params: acme,
      body: { searchId: 'acmelogistics', phoneNumber: '010-7777-0001', categoryCode: '00300010001', token: ref('kakaoToken:01077770001') },
    },
  ],
  requestKakaoChannelToken: [{ name: 'bistro', summary: 'Send a token to a manager of a channel', params: acme, body: { searchId: 'bistroseoul', phoneNumber: '010-7777-0002' } }],
  getKakaoChannel: [{ name: 'acme', summary: 'The connection, its status checked with the messenger', params: { ...acme, channelId: CHANNEL } }],
  deleteKakaoChannel: [{ name: 'acme', summary: 'Disconnect it', params: { ...acme, channelId: CHANNEL } }],
  listKakaoTemplates: [{ name: 'acme', summary: 'Notification templates of a channel', params: acme, query: { channelId: CHANNEL } }],
  listKakaoBrandTemplates: [{ name: 'acme', summary: 'Brand-message templates of a channel', params: acme, query: { channelId: CHANNEL, pageSize: 50 } }],
  createKakaoBrandImage: [
    {
      name: 'wide',
      summary: 'Upload a PNG for wide bubbles (the image part shown base64-encoded)',
      params: acme,
      contentType: 'multipart/form-data',
      body: { image: PNG_BASE64, bubbleType: 'WIDE', slot: 'main' },
    },
  ],
  listKakaoBrandImages: [{ name: 'acme', summary: 'Uploaded images, newest first', params: acme, query: { page: 0 } }],
};
