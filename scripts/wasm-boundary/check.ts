// Holds the hand-typed boundary of extension/src/core/wasm.ts (`WasmExports`, `SecretaryHandle`,
// `CatalogHandle`, which name the JSON each call returns) to the declarations wasm-pack writes for
// the module it built (build/wasm/secretary_wasm.d.ts, which only say `string` and `any`). Type-checked,
// never run: `scripts/check-wasm-boundary` (scripts/test, after the build) fails when
//   - the hosts name an export or a method the module lacks, or pass arguments it does not take;
//   - the module exports a function or a method the hosts' types do not name (an unused export is
//     dropped from the facade, a used one is typed in core/wasm.ts).
import type * as Glue from '../../build/wasm/secretary_wasm';
import type { SecretaryHandle, CatalogHandle, WasmExports } from '../../extension/src/core/wasm';

type Nothing<T extends never> = T;

/** Every export and method the hosts name exists and takes what they pass. */
export const exportsAsTyped = (glue: typeof Glue): WasmExports => glue;

/** Every export of the module is typed for the hosts. */
export type UntypedExports = Nothing<Exclude<keyof typeof Glue, keyof WasmExports>>;
/** Every method of `Secretary` is typed (`[Symbol.dispose]` is wasm-bindgen's, for `using`). */
export type UntypedMethods = Nothing<Exclude<keyof Glue.Secretary, keyof SecretaryHandle | typeof Symbol.dispose>>;
/** Every method of `Catalog` is typed. */
export type UntypedIndexMethods = Nothing<Exclude<keyof Glue.Catalog, keyof CatalogHandle | typeof Symbol.dispose>>;
