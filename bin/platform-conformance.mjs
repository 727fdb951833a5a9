#!/usr/bin/env node
// `npx platform-conformance`: the conformance kit's CLI, from the compiled build; its usage lines
// and hints name `npx platform-conformance` (bin/command-name.ts).
import '../dist/bin/conformance.js';
