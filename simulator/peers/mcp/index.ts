// The MCP peers behind their door: the fake MCP servers on loopback and the call runtime's MCP
// client (the runtime builds both and offers them, with the egress guard, as live I/O: they are
// not state). This entry holds their /_sim routes and capability words; it keeps no state, so
// it has no part in snapshots. Listed just before the MCP connections, which test against them.
import { defineFamily } from '../../resources/family.ts';
import { operations as control } from './control.ts';
import { needs } from './ports.ts';

export const mcp = defineFamily({
  key: 'mcp',
  needs,
  create: () => ({}),
  control,
  capabilities: ['mcp-servers', 'egress'],
});
