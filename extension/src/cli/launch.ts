// `secretary` (dist/cli.js): loads the command line (dist/cli-main.js) through V8's code cache.
//
// Compiling the 400 KB bundle is a large part of a start (about 35 ms of the ~60 ms a
// `secretary mcp` adds to a bare `node`), and it is the same work every time. Node 22 keeps
// compiled code across runs with `module.enableCompileCache()`; on older Node (20) the bundle is
// compiled here with `vm.Script` and V8's code cache is kept in a file (as Node 22 does). The
// cache lives in the user's cache folder, never in a shared temporary folder: V8 trusts a code
// cache's contents. `NODE_DISABLE_COMPILE_CACHE` (Node's own switch) turns both off.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vm from 'vm';
import Module from 'module';

interface CliMain {
  main(argv: string[]): Promise<number>;
}

/** What `Module` offers beyond its typings on every supported Node (`_nodeModulePaths` is how
 * Node itself fills `module.paths`). */
type NodeModule = typeof Module & {
  enableCompileCache?: (dir?: string) => unknown;
  wrap(source: string): string;
  _nodeModulePaths(dir: string): string[];
  new (id: string, parent?: unknown): NodeJS.Module;
};

const MAIN = path.join(__dirname, 'cli-main.js');

/** Where compiled code is kept: `$XDG_CACHE_HOME` (else the platform's cache folder) /
 * copilot-chat-secretary/code-cache. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CACHE_HOME ||
    (process.platform === 'win32' ? env.LOCALAPPDATA : undefined) ||
    (process.platform === 'darwin' ? path.join(os.homedir(), 'Library', 'Caches') : path.join(os.homedir(), '.cache'));
  return path.join(base, 'copilot-chat-secretary', 'code-cache');
}

function load(): CliMain {
  const node = Module as NodeModule;
  if (process.env.NODE_DISABLE_COMPILE_CACHE) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(MAIN) as CliMain;
  }
  if (typeof node.enableCompileCache === 'function') {
    try {
      node.enableCompileCache(codeCacheDir());
    } catch {
      // No cache: the bundle is compiled as usual.
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(MAIN) as CliMain;
  }
  return loadWithCodeCache(node, MAIN);
}

/** Runs `file` as a CommonJS module compiled with V8's code cache of an earlier run, and writes
 * the cache when there was none (or V8 refused it: another Node, another bundle). */
function loadWithCodeCache(node: NodeModule, file: string): CliMain {
  const source = fs.readFileSync(file, 'utf8');
  const stat = fs.statSync(file);
  const cacheFile = path.join(
    codeCacheDir(),
    `${path.basename(file)}-${process.version}-${process.arch}-${stat.size}-${Math.trunc(stat.mtimeMs)}.v8cache`,
  );
  let cached: Buffer | undefined;
  try {
    cached = fs.readFileSync(cacheFile);
  } catch {
    cached = undefined;
  }
  // Node's own loader for `import()` (Node >= 20.12; without it a dynamic import in the bundle fails
  // with "A dynamic import callback was not specified").
  const importModuleDynamically = (vm as unknown as { constants?: { USE_MAIN_CONTEXT_DEFAULT_LOADER?: symbol } }).constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  const script = new vm.Script(node.wrap(source), {
    filename: file,
    cachedData: cached,
    ...(importModuleDynamically ? { importModuleDynamically: importModuleDynamically as unknown as vm.ScriptOptions['importModuleDynamically'] } : {}),
  });
  const dir = path.dirname(file);
  const mod = new node(file, module);
  mod.filename = file;
  mod.paths = node._nodeModulePaths(dir);
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, dir);
  mod.loaded = true;
  if (!cached || script.cachedDataRejected) {
    // Written once the start-up code has run (V8 then includes the functions it compiled), at the
    // latest when the process ends.
    let saved = false;
    const save = () => {
      if (saved) {
        return;
      }
      saved = true;
      try {
        fs.mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
        const temp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(temp, cacheFile);
        // Caches of earlier builds are of no further use.
        const prefix = `${path.basename(file)}-`;
        for (const name of fs.readdirSync(path.dirname(cacheFile))) {
          if (name.startsWith(prefix) && name !== path.basename(cacheFile) && name.endsWith('.v8cache')) {
            fs.rmSync(path.join(path.dirname(cacheFile), name), { force: true });
          }
        }
      } catch {
        // A read-only home, a full disk: the next run compiles again.
      }
    };
    setTimeout(save, 1_000).unref();
    process.once('exit', save);
  }
  return mod.exports as CliMain;
}

load()
  .main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      // Not log.ts's `errorMessage`: the launcher imports nothing of the bundle it caches.
      process.stderr.write(`secretary: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
