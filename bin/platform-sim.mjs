#!/usr/bin/env node
// `npx platform-sim`: serves the simulator (same options as `npm start`), from the compiled build.
import '../dist/bin/sim.js';
