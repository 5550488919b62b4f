// Tokens moved to the shared layer (the access guard hashes session cookies with them); this
// re-export remains for the tests and benchmarks that import the old path.
export { createToken, hashToken } from '../../http/tokens.ts';
