/**
 * The JSON shapes of the dialogs the core returns, generated from the Rust types
 * (crates/secretary-core/src/session/model.rs, store.rs) by scripts/gen-ts-types.
 */
export type { ChatRequest } from '../core/generated/ChatRequest';
export type { Dialog } from '../core/generated/Dialog';
export type { DialogStatus } from '../core/generated/DialogStatus';
export type { RequestStatus } from '../core/generated/RequestStatus';
export type { StoredDialog } from '../core/generated/StoredDialog';
