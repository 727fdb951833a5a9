// Every property the kit runs, in report order. A resource family adds its own here.
import type { PropertyDef } from './types.ts';

export const PROPERTIES: readonly PropertyDef[] = [];
