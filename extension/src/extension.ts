import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

import { WasmCore } from './core/wasm';
import { registerRecallHooksCommand } from './hooks/setupCommand';
import { flag, numberIn, stringList } from './host/settingValues';
import { vscodeHost } from './host/vscodeHost';
import {
  canonicalKey,
  EMPTY_WINDOW,
  listSessionFiles,
  sessionsOfUser,
  sessionsOfWorkspace,
  sessionsUnder,
  workspaceKey,
  workspaceTwins,
  type SessionFile,
} from './sessions/discovery';
import { agentRoots, agentSessionFiles, agentWatchDirs, agentWatchNames, taskUserDataDirs } from './sessions/agents';
import { isCursorConversation } from './sessions/cursor';
import { isUriPath, nodeChatStorage, routedChatStorage, type ChatStorage } from './sessions/chatStorage';
import { chatsAreElsewhere, findWindowStore, TEST_STORE_ENV, type WindowStore } from './sessions/windowStore';
import { listSessionUris, workspaceFsStorage } from './sessions/workspaceFsStorage';
import { DialogSessionsService, type HistoryFilter } from './sessions/dialogSessionsService';
import type { SessionScope } from './sessions/sessionSync';
import type { StoredDialog } from './sessions/types';
import { ToolCatalogSync, vscodePrefixOf } from './tools/catalogSync';
import { CoreTool, ToolCallTool, type ToolListing } from './tools/coreTool';
import { ToolLoadTool } from './tools/toolLoadTool';
import { ChatMonitorTreeProvider, type SecretaryNode } from './tree/chatMonitorTreeProvider';
import { dialogOf, registerDialogCommands } from './tree/dialogCommands';
import { registerMcpServerProvider } from './mcp/provider';
import { callContext } from './chat/liveChat';
import { handleChatRequest, registerChatParticipant, type PromptBackend, type PromptListing } from './chat/participant';
import { errorMessage } from './log';

const CONFIG = 'copilotChatSecretary';

/** When the extension host finished loading this bundle (`performance.now()` of the host). */
const loadedAt = performance.now();

/** What `activate` returns: other extensions and the e2e tests reach the live parts through it. */
export interface SecretaryApi {
  core: WasmCore;
  sessions: DialogSessionsService;
  tools: ToolListing[];
  /** This workspace's `workspaceStorage/<id>` folder, where VS Code keeps its chat sessions. */
  workspaceStorageDir: string | undefined;
  /** In a remote window (or the test of one): where the window keeps this workspace's chats, read
   * through `vscode.workspace.fs`; `undefined` when they are read with Node `fs`. */
  windowStore: Promise<WindowStore | undefined>;
  activationMs: number;
  /** `performance.now()` of the extension host when this bundle had loaded and when `activate`
   * began: the e2e tests tell VS Code's part of an activation from ours with them. */
  timings: { loadedAt: number; activateStartedAt: number };
  /** The MCP server definition provider offered to VS Code (`undefined` without the MCP API). */
  mcpProvider: ReturnType<typeof registerMcpServerProvider>;
  /** The sidebar's Dialogs view (the current dialog's header, then the others by date). */
  trees: { dialogs: ChatMonitorTreeProvider };
  /** The `@secretary` participant's handler on the live core (tests drive it with their own stream). */
  chat: { handle: (...args: DropFirst<Parameters<typeof handleChatRequest>>) => ReturnType<typeof handleChatRequest> };
}

type DropFirst<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : never;

export async function activate(context: vscode.ExtensionContext): Promise<SecretaryApi> {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Copilot Chat Secretary', { log: true });
  context.subscriptions.push(log);

  const core = new WasmCore(path.join(context.extensionPath, 'dist', 'wasm'), log);
  const config = vscode.workspace.getConfiguration(CONFIG);
  // Tools that need files (flags, content) ask the core's host bridge; example tools by setting.
  core.setHost(vscodeHost(context));
  core.setIncludeExamples(flag(config.get('includeExampleTools'), false));
  const opened = openWindowSessions(context, core, config, log);
  const { sessions, storage, workspace, userDir, workspaceStorageDir } = opened;

  const dialogs = new ChatMonitorTreeProvider(sessions);
  context.subscriptions.push(
    dialogs,
    vscode.window.registerTreeDataProvider('copilotChatSecretary.dialogs', dialogs),
    sessions.onDidChangeCaller(() => dialogs.refresh()),
  );
  const tools = registerTools(context, core, config, sessions, log, opened.sources);
  registerCommands(context, sessions, core, log, [dialogs], storage);
  context.subscriptions.push(...registerDialogCommands(sessions, log));
  const chat = registerChat(context, core, sessions, log);
  const mcpProvider = registerMcpServerProvider(context, { userDir, workspaceStorageDir }, log);
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration(offerReload));

  // The core loads (compiled off the main thread) and the first scan runs in the background:
  // activation only registers, and tools wait for the scan.
  void sessions.start().then(
    () => {
      dialogs.refresh();
    },
    (err) => log.error(`initial session scan failed: ${errorMessage(err)}`),
  );

  const activationMs = performance.now() - started;
  log.info(`Copilot Chat Secretary ${core.version} activated in ${activationMs.toFixed(1)} ms (workspace: ${workspace ?? 'all'})`);
  return {
    core,
    sessions,
    tools,
    workspaceStorageDir,
    windowStore: opened.store ?? Promise.resolve(undefined),
    activationMs,
    timings: { loadedAt, activateStartedAt: started },
    mcpProvider,
    trees: { dialogs },
    chat,
  };
}

/**
 * The sessions service of this window: VS Code's chats of the workspace (through Node `fs`, or in
 * a remote window through `vscode.workspace.fs`) and the other agents' logs of its folder, unless
 * the `sources` setting leaves them out.
 */
function openWindowSessions(context: vscode.ExtensionContext, core: WasmCore, config: vscode.WorkspaceConfiguration, log: vscode.LogOutputChannel) {
  const workspaceStorageDir = context.storageUri ? path.dirname(context.storageUri.fsPath) : undefined;
  const userDir = path.dirname(path.dirname(context.globalStorageUri.fsPath));
  // A remote window keeps its chats on the window's machine: read them through the window.
  const elsewhere = chatsAreElsewhere() || Boolean(process.env[TEST_STORE_ENV]);
  const storage: ChatStorage = elsewhere ? routedChatStorage(workspaceFsStorage()) : nodeChatStorage;
  const built = elsewhere
    ? windowScope(context, config, log, workspaceStorageDir)
    : buildScope(config, userDir, workspaceStorageDir, windowFolderKey());
  const { workspace } = built;
  // Other agents' logs (Copilot CLI, Claude Code, Codex, ..., Cline's tasks) of this folder, unless the `sources`
  // setting leaves them out; their dialogs join this workspace through the folder they name.
  const sources = stringList(config.get('sources'));
  const readAgents = sources.length === 0 || sources.some((s) => s !== 'vscode');
  const roots = agentRoots(process.env, undefined, taskUserDataDirs(elsewhere ? undefined : path.dirname(userDir)));
  // Aider writes its history in the folder it runs in: this window's local folders, once the
  // workspace is trusted (a cloned repository can ship a `.aider.chat.history.md` of made-up
  // "requests"; in Restricted Mode it is not read).
  const withAider = () => ({
    ...roots,
    aider: [
      ...roots.aider,
      ...(vscode.workspace.isTrusted ? (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath) : []),
    ],
  });
  const scope: SessionScope = readAgents
    ? {
        files: async () => [...(await built.scope.files()), ...agentSessionFiles(withAider())],
        watchDirs: () => [...built.scope.watchDirs(), ...agentWatchDirs(withAider())],
        watchNames: () => agentWatchNames(roots),
      }
    : built.scope;
  const sessions = new DialogSessionsService(core, scope, log, {
    workspace,
    debounceMs: numberIn(config.get('watchDebounceMs'), 300, 0, 10_000),
    storage,
  });
  context.subscriptions.push({ dispose: () => sessions.dispose() });
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => void sessions.refresh()));
  return { sessions, storage, workspace, userDir, workspaceStorageDir, sources, store: built.store };
}

/**
 * Registers every own tool as a VS Code language model tool, deferred ones too (VS Code offers a
 * deferred one to the model only once `tool_load` set its context key, the `when` clause of its
 * contribution), and sets up discovery: our own tools under their VS Code names, the others from
 * `vscode.lm.tools`. Returns the core's listing as the build wrote it (registering does not load
 * the module).
 */
function registerTools(
  context: vscode.ExtensionContext,
  core: WasmCore,
  config: vscode.WorkspaceConfiguration,
  sessions: DialogSessionsService,
  log: vscode.LogOutputChannel,
  sources: string[],
): ToolListing[] {
  const legacyPrefixes = stringList(config.get('legacyToolPrefixes'));
  const semantic = flag(config.get('search.semantic'), true);
  const tools: ToolListing[] = core.tools();
  // Our VS Code prefix as the core's listing spells it (no copy of the core's constant here).
  const ownPrefix = vscodePrefixOf(tools);
  // Applied to the core when it loads (after activation) and to a fresh one after a trap.
  core.configure((h) => {
    h.configureTools(ownPrefix, legacyPrefixes);
    h.setSemanticSearch(semantic);
    // In VS Code the current dialog is a VS Code chat whenever the folder has one.
    h.setCurrentSource('vscode');
    try {
      h.setSources(sources);
    } catch (err) {
      log.warn(`copilotChatSecretary.sources: ${errorMessage(err)}`);
    }
  });
  const catalog = new ToolCatalogSync(core, log, tools.map((t) => t.name), ownPrefix);
  context.subscriptions.push(core.onDidReset(() => catalog.invalidate()));
  for (const listing of tools) {
    const scratch = context.globalStorageUri;
    const tool =
      listing.name === 'tool_load'
        ? new ToolLoadTool(listing, tools, sessions, log, catalog, scratch)
        : new (listing.name === 'tool_call' ? ToolCallTool : CoreTool)(listing, sessions, log, catalog, scratch);
    context.subscriptions.push(vscode.lm.registerTool(listing.vscodeName, tool));
    log.info(`language model tool registered: ${listing.vscodeName}`);
  }
  return tools;
}

/** `@secretary`: the core's prompts, rendered on the live sessions. Returns its handler for tests. */
function registerChat(
  context: vscode.ExtensionContext,
  core: WasmCore,
  sessions: DialogSessionsService,
  log: vscode.LogOutputChannel,
): SecretaryApi['chat'] {
  let promptListings: PromptListing[] | undefined;
  const prompts: PromptBackend = {
    render: (name, args, token) => sessions.renderPrompt(name, args, callContext(token, context.globalStorageUri, log)),
    listings: () => (promptListings ??= core.listing.prompts),
  };
  context.subscriptions.push(...registerChatParticipant(context, prompts));
  log.info(`chat participant registered: @secretary (${core.listing.prompts.map((p) => `/${p.command}`).join(', ')})`);
  return { handle: (request, stream, token) => handleChatRequest(prompts, request, stream, token) };
}

/** Settings read once at activation: offer to reload the window when one changes. */
function offerReload(event: vscode.ConfigurationChangeEvent): void {
  const reload = (what: string) =>
    void vscode.window
      .showInformationMessage(`Copilot Chat Secretary: reload the window to ${what}.`, 'Reload')
      .then((choice) => choice && vscode.commands.executeCommand('workbench.action.reloadWindow'));
  if (event.affectsConfiguration(`${CONFIG}.includeExampleTools`)) {
    reload('add or remove the example tools');
  }
  if (event.affectsConfiguration(`${CONFIG}.scope`) || event.affectsConfiguration(`${CONFIG}.extraStorageRoots`)) {
    reload('apply the new session scope');
  }
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}

/** Which files the sessions service reads, from the `scope` and `extraStorageRoots` settings. */
/**
 * The key VS Code would write in this window's `workspace.json` (its workspace file, else its one
 * folder), for a storage folder that has none: code-server's web workspaces. With it, the window's
 * chats and the other agents' sessions of its folder are one workspace there too.
 */
function windowFolderKey(): string | undefined {
  const file = vscode.workspace.workspaceFile;
  if (file && file.scheme !== 'untitled') {
    return canonicalKey(file.toString());
  }
  const folders = vscode.workspace.workspaceFolders ?? [];
  return folders.length === 1 ? canonicalKey(folders[0].uri.toString()) : undefined;
}

/** What the session service reads and watches, the workspace key it serves, and (a remote
 * window) where the window's chats were found. */
interface BuiltScope {
  scope: SessionScope;
  workspace: string | undefined;
  store?: Promise<WindowStore | undefined>;
}

function buildScope(
  config: vscode.WorkspaceConfiguration,
  userDir: string,
  workspaceStorageDir: string | undefined,
  windowKey: string | undefined,
): BuiltScope {
  const extraRoots = stringList(config.get('extraStorageRoots'));
  const all = config.get<string>('scope', 'workspace') === 'all';
  const extras = (): SessionFile[] => extraRoots.flatMap((root) => sessionsUnder(root));
  if (all) {
    const storageRoot = path.join(userDir, 'workspaceStorage');
    return {
      workspace: undefined,
      scope: {
        files: () => [...sessionsOfUser(userDir), ...extras()],
        watchDirs: () => [
          storageRoot,
          ...listDirs(storageRoot).flatMap((dir) => [dir, ...sessionDirs(dir)]),
          path.join(userDir, 'globalStorage', 'emptyWindowChatSessions'),
          path.join(userDir, 'globalStorage', 'transferredChatSessions'),
        ],
      },
    };
  }
  if (!workspaceStorageDir) {
    const dir = path.join(userDir, 'globalStorage', 'emptyWindowChatSessions');
    return {
      workspace: EMPTY_WINDOW,
      scope: {
        files: () => [
          ...listSessionFiles(dir).map((file) => ({ path: file, workspace: EMPTY_WINDOW, kind: 'native' as const })),
          ...extras(),
        ],
        watchDirs: () => [path.join(userDir, 'globalStorage'), dir],
      },
    };
  }
  // The storage folder's key, read once: its `workspace.json`, else (its key would be the
  // folder's own path) the folder the window says it has.
  const own = workspaceKey(workspaceStorageDir);
  const keys = new Map([[workspaceStorageDir, own === workspaceStorageDir && windowKey ? windowKey : own]]);
  const storages = () => workspaceTwins(workspaceStorageDir, keys);
  return {
    workspace: storages()[0].workspace,
    scope: {
      files: () => [...storages().flatMap((storage) => sessionsOfWorkspace(storage)), ...extras()],
      watchDirs: () => [
        path.dirname(workspaceStorageDir),
        ...storages().flatMap((storage) => [storage.dir, ...sessionDirs(storage.dir)]),
      ],
    },
  };
}

/**
 * The scope of a remote window: this workspace's chats in the window's storage folder (read through
 * `vscode.workspace.fs`, found by `findWindowStore`), Copilot's transcripts in the remote host's
 * storage folder beside this extension's, and the extra roots (Node `fs`, the remote host's). The
 * workspace key is the window's folder as the remote host spells it, which the other agents' logs
 * on that host name too.
 */
function windowScope(
  context: vscode.ExtensionContext,
  config: vscode.WorkspaceConfiguration,
  log: vscode.LogOutputChannel,
  workspaceStorageDir: string | undefined,
): BuiltScope {
  const configured = config.inspect<string>('remote.localUserDataDir')?.globalValue;
  const store = findWindowStore(context, typeof configured === 'string' && configured ? configured : undefined, log);
  let found: WindowStore | undefined;
  void store.then((s) => (found = s));
  const workspace = windowFolderKey() ?? (workspaceStorageDir ? `remote-window:${path.basename(workspaceStorageDir)}` : EMPTY_WINDOW);
  const extraRoots = stringList(config.get('extraStorageRoots'));
  const transcripts = workspaceStorageDir ? path.join(workspaceStorageDir, 'GitHub.copilot-chat', 'transcripts') : undefined;
  return {
    workspace,
    store,
    scope: {
      files: async () => {
        found = await store;
        const chats = found ? await listSessionUris(vscode.Uri.joinPath(found.storage, 'chatSessions')) : [];
        return [
          ...chats.map((file) => ({ path: file, workspace, kind: 'native' as const })),
          ...(transcripts ? listSessionFiles(transcripts).map((file) => ({ path: file, workspace, kind: 'transcript' as const })) : []),
          ...extraRoots.flatMap((root) => sessionsUnder(root)),
        ];
      },
      watchDirs: () => [
        ...(found ? [found.storage.toString(), vscode.Uri.joinPath(found.storage, 'chatSessions').toString()] : []),
        ...(workspaceStorageDir && transcripts ? [workspaceStorageDir, path.dirname(transcripts), transcripts] : []),
      ],
    },
  };
}

function sessionDirs(storageDir: string): string[] {
  return [path.join(storageDir, 'chatSessions'), path.join(storageDir, 'GitHub.copilot-chat', 'transcripts')];
}

function listDirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(dir, entry.name));
  } catch {
    return [];
  }
}

function registerCommands(
  context: vscode.ExtensionContext,
  sessions: DialogSessionsService,
  core: WasmCore,
  log: vscode.LogOutputChannel,
  trees: ChatMonitorTreeProvider[],
  storage: ChatStorage,
): void {
  const summary = (entry: StoredDialog | undefined) => entry ?? null;
  context.subscriptions.push(
    vscode.commands.registerCommand(`${CONFIG}.refresh`, async () => {
      await sessions.refresh();
      trees.forEach((tree) => tree.refresh());
    }),
    vscode.commands.registerCommand(`${CONFIG}.showLog`, () => log.show()),
    registerRecallHooksCommand(context, log),
    vscode.commands.registerCommand(`${CONFIG}.copyRequest`, async (node?: SecretaryNode) => {
      if (node?.kind === 'request') {
        await vscode.env.clipboard.writeText(node.request.text);
        void vscode.window.setStatusBarMessage(`Copied request #${node.request.index}`, 2000);
      }
    }),
    vscode.commands.registerCommand(`${CONFIG}.copyResponse`, async (node?: SecretaryNode) => {
      if (node?.kind !== 'request') {
        return;
      }
      try {
        const bytes = await storage.read(node.entry.path, 0, core.run((_h, m) => m.maxSessionBytes()));
        const details = JSON.parse(
          core.run((_h, m) => m.responseDetails(path.basename(node.entry.path), bytes, node.request.index)),
        ) as { markdown: string };
        await vscode.env.clipboard.writeText(details.markdown);
        void vscode.window.setStatusBarMessage(`Copied response #${node.request.index}`, 2000);
      } catch (err) {
        void vscode.window.showErrorMessage(`Cannot read the response: ${errorMessage(err)}`);
      }
    }),
    vscode.commands.registerCommand(`${CONFIG}.openSessionFile`, async (node?: SecretaryNode) => {
      const file = dialogOf(node)?.path ?? sessions.getCurrentDialog()?.path;
      if (file && isCursorConversation(file)) {
        void vscode.window.showInformationMessage(`This Cursor conversation has no file of its own: it is kept in ${file.slice(0, file.lastIndexOf('#'))}.`);
      } else if (file) {
        await vscode.window.showTextDocument(isUriPath(file) ? vscode.Uri.parse(file, true) : vscode.Uri.file(file), {
          preview: true,
        });
      }
    }),
    // The commands API other extensions call (as the TypeScript extension of this name offers).
    vscode.commands.registerCommand(`${CONFIG}.api.getStatus`, () => ({
      ready: sessions.isReady,
      workspace: sessions.currentWorkspace ?? null,
      dialogs: sessions.getDialogs().length,
      currentSessionId: sessions.getCurrentSessionId() ?? null,
      unreadableFiles: Object.fromEntries(sessions.sync.failures),
      coreVersion: core.version,
    })),
    vscode.commands.registerCommand(`${CONFIG}.api.getCurrentDialog`, () => summary(sessions.getCurrentDialog())),
    vscode.commands.registerCommand(`${CONFIG}.api.getDialogHistory`, (filter?: HistoryFilter) =>
      sessions.getDialogHistory(filter ?? {}),
    ),
    vscode.commands.registerCommand(`${CONFIG}.api.getSession`, (sessionId: string) =>
      summary(typeof sessionId === 'string' ? sessions.getSession(sessionId) : undefined),
    ),
  );
}
