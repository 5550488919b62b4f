/*
 * The contract's bulk edit of variants. TODO: import it from '@dukkan/contract' once the contract's
 * index exports './domain/variant-bulk-edit.ts' (a shared file, left to the lead); until then this
 * one file reaches it by path, and the products feature imports it from here.
 */
export * from '../../../../../packages/contract/src/domain/variant-bulk-edit.ts';
