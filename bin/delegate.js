#!/usr/bin/env node
// The CLI entry: the bundled, lazily-split build lives in dist/cli.
import('../dist/cli/main.mjs');
