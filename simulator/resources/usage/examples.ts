// Request examples of usage (shown in /openapi.json; sent against the default fixture by
// openapi-examples.test.ts).
import type { OperationExample } from '../../core/operation.ts';

export const examples: Record<string, OperationExample[]> = {
  getUsage: [
    {
      name: 'march',
      summary: 'Daily usage per meter over a range, today included',
      params: { accountId: 'AC1a2b3c4d' },
      query: { from: '2026-03-01T00:00:00Z', to: '2026-03-31T00:00:00Z', groupBy: ['day'], includeToday: true },
    },
  ],
};
