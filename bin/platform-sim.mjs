#!/usr/bin/env node
// `npx platform-sim`: serves the simulator (same options as `npm start`), from the compiled build;
// its usage line names `npx platform-sim` (bin/command-name.ts).
import '../dist/bin/sim.js';
