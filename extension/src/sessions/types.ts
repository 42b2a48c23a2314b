/** The JSON shapes the core returns (see crates/secretary-core/src/session/model.rs). */

export type RequestStatus = 'complete' | 'inProgress' | 'canceled' | 'failed' | 'needsInput';
export type DialogStatus = 'empty' | 'active' | 'complete' | 'canceled' | 'failed' | 'needsInput';

export interface ChatRequest {
  index: number;
  requestId?: string;
  text: string;
  timestamp?: number;
  modelId?: string;
  agentId?: string;
  status: RequestStatus;
}

export interface Dialog {
  sessionId: string;
  title: string;
  creationDate?: number;
  lastActivity?: number;
  location?: string;
  format: 'nativeJson' | 'nativeJsonl' | 'export' | 'transcript' | 'copilotCli' | 'claudeCode' | 'codex';
  source: 'vscode' | 'copilot-cli' | 'claude-code' | 'codex';
  /** The folder an agent log names (its `cwd`). */
  folder?: string;
  requests: ChatRequest[];
  status: DialogStatus;
  diagnostics?: string[];
}

export interface StoredDialog {
  path: string;
  workspace?: string;
  dialog: Dialog;
  available: boolean;
  error?: string;
}
