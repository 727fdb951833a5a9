// Request examples of managed agents, their knowledge documents and MCP bindings (shown in
// /openapi.json; sent in document order against the default fixture by
// openapi-examples.test.ts). The MCP connection "crm" is the one the MCP connections' examples
// created and tested (its server lists the tool `echo`).
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const FRONT = { ...acme, agentId: ref('createAgent.front.agentId') };
const SEOYEON = '12ee52d2-3247-4961-8935-b675f5010841';
const JUNHO = '46f7c9ea-b38c-445a-bad9-8a70a603e9e1';

const pipeline = {
  outputMode: 'pipeline',
  language: 'ko',
  knowledge: { enabled: true, topK: 3 },
  stt: { provider: 'openai', model: 'gpt-4o-transcribe' },
  llm: { provider: 'openai', model: 'gpt-4.1-mini', temperature: 0.6 },
  tts: { provider: 'cartesia', model: 'sonic-3.5', voice: SEOYEON, speed: 1.1 },
};

export const examples: Record<string, OperationExample[]> = {
  listAgents: [{ name: 'acme', summary: 'The account\'s agents, newest first', params: acme }],
  createAgent: [
    {
      name: 'front',
      summary: 'A front-desk agent on the defaults (external TTS, Minji\'s voice)',
      params: acme,
      body: { name: 'Front desk', instructions: '당신은 애크미 물류의 안내 상담원입니다. 배송 조회와 영업시간을 안내하세요.', greeting: true },
    },
    { name: 'pipeline', summary: 'A pipeline agent with its whole configuration', params: acme, body: { name: 'Bookings', configuration: pipeline } },
    { name: 'spare', summary: 'An agent with the realtime model shortcut', params: acme, body: { name: 'Spare', model: 'gpt-realtime-2.1' } },
  ],
  listAgentVoices: [{ name: 'acme', summary: 'Stock voices, then the account\'s ready clones', params: acme }],
  getAgent: [{ name: 'front', summary: 'One agent', params: FRONT }],
  updateAgent: [{ name: 'voice', summary: 'Speak with Junho and wait for the caller to speak first', params: FRONT, body: { voice: JUNHO, greeting: false } }],
  deleteAgent: [{ name: 'spare', summary: 'Delete the third agent', params: { ...acme, agentId: ref('createAgent.spare.agentId') } }],
  listAgentKnowledgeDocuments: [{ name: 'front', summary: 'The agent\'s documents, newest first', params: FRONT }],
  createAgentKnowledgeDocument: [
    { name: 'hours', summary: 'A document from JSON text', params: FRONT, body: { title: 'Opening hours', text: '평일 오전 9시부터 오후 6시까지 운영합니다.\n토요일은 오후 1시까지, 일요일과 공휴일은 쉽니다.' } },
    {
      name: 'areas',
      summary: 'A document from a text file (the file part shown as its text)',
      params: FRONT,
      contentType: 'multipart/form-data',
      body: { title: 'Delivery areas', file: '서울과 경기 전 지역은 다음 날 배송됩니다.\n제주와 도서 지역은 2~3일이 걸립니다.' },
    },
  ],
  deleteAgentKnowledgeDocument: [{ name: 'areas', summary: 'Delete the file document', params: { ...FRONT, documentId: ref('createAgentKnowledgeDocument.areas.documentId') } }],
  reindexAgentKnowledgeDocument: [{ name: 'hours', summary: 'Index the text document again', params: { ...FRONT, documentId: ref('createAgentKnowledgeDocument.hours.documentId') } }],
  listAgentMcpConnections: [{ name: 'front', summary: 'The connections the agent uses', params: FRONT }],
  setAgentMcpConnection: [
    {
      name: 'crm',
      summary: 'Let the agent call the CRM\'s echo tool; a failing call does not end the call',
      params: { ...FRONT, connectionId: ref('createMcpConnection.crm.connectionId') },
      body: { allowedTools: ['echo'], failureMode: 'continue' },
    },
  ],
  deleteAgentMcpConnection: [{ name: 'crm', summary: 'Detach the CRM', params: { ...FRONT, connectionId: ref('createMcpConnection.crm.connectionId') } }],
};
