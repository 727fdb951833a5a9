// The stock Korean voices of listAgentVoices (Cartesia sonic-3.5, guides: "14 stock Korean
// voices"). Only Minji, the default voice, is named by the references (id and name); the
// other thirteen names and ids are the simulator's own (docs/decisions.md "Managed agents").
// The account's ready voice clones are listed after them with isCustom true.

export const DEFAULT_VOICE_ID = '7706804e-ea85-443a-968a-b9bf363bdde8';
export const VOICE_PROVIDER = 'cartesia';
export const VOICE_MODEL = 'sonic-3.5';

export interface StockVoice {
  id: string;
  name: string;
  description: string;
  gender: 'feminine' | 'masculine' | null;
  isFeatured: boolean;
}

export const STOCK_VOICES: readonly StockVoice[] = [
  { id: DEFAULT_VOICE_ID, name: 'Minji - Modern Communicator', description: 'Clear, warm young woman; the default voice for customer calls.', gender: 'feminine', isFeatured: true },
  { id: '46f7c9ea-b38c-445a-bad9-8a70a603e9e1', name: 'Junho - Calm Advisor', description: 'Steady, reassuring man for support and consultations.', gender: 'masculine', isFeatured: true },
  { id: '12ee52d2-3247-4961-8935-b675f5010841', name: 'Seoyeon - Bright Receptionist', description: 'Cheerful woman for bookings and front desks.', gender: 'feminine', isFeatured: true },
  { id: '8a20d9bf-d302-48e7-8120-ac1510bc09c5', name: 'Hyunwoo - Professional Announcer', description: 'Crisp, formal man for notices and announcements.', gender: 'masculine', isFeatured: true },
  { id: 'd58af959-5f53-4301-80be-e3855543db2b', name: 'Jiwoo - Friendly Guide', description: 'Soft, friendly woman for walkthroughs.', gender: 'feminine', isFeatured: false },
  { id: '3f725d53-2eef-470e-a724-90e5d09b0bf1', name: 'Dohyun - Energetic Sales', description: 'Upbeat man for promotions.', gender: 'masculine', isFeatured: false },
  { id: 'd2437577-7dbd-48a3-bd65-7b91e8e0e237', name: 'Yuna - Gentle Care', description: 'Gentle woman for healthcare and care services.', gender: 'feminine', isFeatured: false },
  { id: 'a3377235-eaf5-404f-bad0-2341124327d2', name: 'Minsu - Everyday Talker', description: 'Casual, natural man for everyday conversations.', gender: 'masculine', isFeatured: false },
  { id: '9c5d1edb-1427-49d4-a77b-f53192b007da', name: 'Haeun - News Reader', description: 'Even, articulate woman for reading information aloud.', gender: 'feminine', isFeatured: false },
  { id: '6afbef4f-c65a-478b-acda-c39dd6ad2467', name: 'Sungmin - Senior Consultant', description: 'Mature, trustworthy man for finance and insurance.', gender: 'masculine', isFeatured: false },
  { id: '7081ea97-a853-44bb-8d7e-8a95bd7bbc07', name: 'Eunji - Lively Host', description: 'Lively woman for events and entertainment.', gender: 'feminine', isFeatured: false },
  { id: 'd85311b3-0319-47a8-9986-a700fe21ee08', name: 'Taeyang - Youthful Voice', description: 'Young, light man for casual services.', gender: 'masculine', isFeatured: false },
  { id: '7a7faebb-a48b-4364-90e9-3b1df9744fc0', name: 'Sora - Soft Narrator', description: 'Quiet, soothing woman for long explanations.', gender: 'feminine', isFeatured: false },
  { id: 'f0b169d0-9cc9-40f6-a335-0f9240c09b9f', name: 'Ari - Neutral Assistant', description: 'Neutral assistant voice.', gender: null, isFeatured: false },
];

const STOCK_IDS = new Set(STOCK_VOICES.map((v) => v.id));

export function isStockVoice(id: string): boolean {
  return STOCK_IDS.has(id.toLowerCase());
}
