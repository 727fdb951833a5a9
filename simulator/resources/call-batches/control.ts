// The call batches' /_sim route: one batch as the inspector's batch view draws it (chart.ts),
// read with the control-plane token whatever account holds it. Read-only; reading it changes
// nothing, so a run that never opens the view snapshots the same bytes.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { batchErrors } from './model.ts';
import { operation } from './scope.ts';
import { BatchChartSchema, batchChart } from './chart.ts';

export const operations = [
  operation({
    operationId: 'simGetCallBatchChart',
    method: 'GET',
    path: '/_sim/call-batches/{batchId}/chart',
    tag: 'Control plane',
    summary: 'One call batch over virtual time: recipients per status, dials per hour against the pace, the rounds\' open hours and outcomes',
    description:
      'Recipients per task status at the end of each time bucket (buckets start one minute wide and widen, at most 2,048 over the batch\'s span), dials per clock hour with the pace\'s limit (`pacingPerMinute` × 60), the stretches in which each round may dial (its windows within the legal hours 08:00 to 21:00 Korea time), and per round the calls placed, those retried and how they ended (`answered`, `machine`, the call\'s status, or `opted out`, `not placed`, `batch canceled`, `batch expired` for recipients the round never dialed). `counts` are the numbers getCallBatch answers. Its cost does not grow with the number of recipients.',
    origin: 'simulator',
    auth: 'control',
    params: { batchId: Type.String() },
    responses: { 200: { description: 'The batch\'s chart data.', schema: BatchChartSchema } },
    errors: [batchErrors.NOT_FOUND],
    handler: ({ scope, params }) => {
      const model = scope.callBatches;
      const series = model.series.find(params.batchId);
      if (!series) throw batchErrors.NOT_FOUND(`no call batch ${params.batchId} in this simulator`);
      return reply.ok(batchChart(series.live!, series, model.time, scope.clock.now()));
    },
  }),
];
