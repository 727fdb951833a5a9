#!/usr/bin/env node
// `npx platform-conformance`: the conformance kit's CLI, from the compiled build.
import '../dist/bin/conformance.js';
