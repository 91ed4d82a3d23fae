#!/usr/bin/env node
// Committed entry so npm can link the bin before the TypeScript build has produced dist/.
import '../dist/src/bin.js';
