import { config } from 'zod/v4/core';

// zod compiles an object's parser with `new Function` where it may, and finds out by trying once.
// The page's policy forbids eval (`script-src` without 'unsafe-eval'), and Chrome reports even a
// caught attempt as a policy violation: in the browser, zod parses without compiling.
config({ jitless: true });
