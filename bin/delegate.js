#!/usr/bin/env node
// The CLI entry: the bundled, lazily-split build lives in dist/cli; start.cjs loads it with V8's code cache.
require('../dist/cli/start.cjs');
