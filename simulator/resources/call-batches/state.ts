// The call batches' part of a snapshot: the batches with their tasks (the model's own part) and,
// beside them, each batch's series over virtual time (series.ts). `series` is left out while no
// batch exists, so a snapshot without batches is what it was before the series; a snapshot
// without `series` (taken before it existed) restores with each batch's series seeded from its
// counts at the restore.
import { Type, type Static } from '@sinclair/typebox';
import type { StatePart } from '../../core/table-state.ts';
import type { CallBatchesModel } from './model.ts';
import { BatchSeriesStateSchema } from './series.ts';
import { CallBatchesStateSchema } from './schema.ts';

export const CallBatchesPartSchema = Type.Object(
  { ...CallBatchesStateSchema.properties, series: Type.Optional(Type.Array(BatchSeriesStateSchema)) },
  { additionalProperties: false },
);
type CallBatchesPart = Static<typeof CallBatchesPartSchema>;

export const callBatchesState: StatePart<CallBatchesModel> = {
  schema: CallBatchesPartSchema,
  snapshot: (m): CallBatchesPart => {
    const own = m.snapshot();
    return own.batches.length === 0 ? own : { ...own, series: m.series.snapshot() };
  },
  restore: (m, state: CallBatchesPart) => {
    // The series first: the model's restore hands each batch the series it finds there.
    m.series.restore(state.series ?? []);
    m.restore({ batches: state.batches });
  },
  clear: (m) => {
    m.series.clear();
    m.clear();
  },
};
