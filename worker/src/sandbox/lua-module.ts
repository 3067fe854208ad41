/**
 * Loads wasmoon's Lua module for one thread and keeps hold of its raw WASM exports. wasmoon hands
 * out only Emscripten's JS wrappers of them, and a JS function placed where Lua calls it (the
 * allocator) makes every call cross into JS; the memory meter needs the module's own realloc and
 * free to stay inside WASM. Emscripten instantiates the module through WebAssembly.instantiate
 * and passes no option to intercept it, so WebAssembly.instantiate is watched while the factory
 * loads: the instance whose exports include lua_newstate is the one.
 */
import { LuaFactory, type LuaWasm } from 'wasmoon';
import type { LuaModuleExports } from './memory-meter.ts';

export interface LuaModule {
  factory: LuaFactory;
  lua: LuaWasm;
  exports: LuaModuleExports;
}

let loading: Promise<unknown> = Promise.resolve();

/** Loads a new module; loads run one after another, so each watch sees only its own instance. */
export function loadLuaModule(): Promise<LuaModule> {
  const loaded = loading.then(load, load);
  loading = loaded.catch(() => undefined);
  return loaded;
}

async function load(): Promise<LuaModule> {
  const instantiate = WebAssembly.instantiate;
  let exports: LuaModuleExports | undefined;
  const watched = async (...args: Parameters<typeof instantiate>) => {
    const result: unknown = await Reflect.apply(instantiate, WebAssembly, args);
    const instance =
      result instanceof WebAssembly.Instance ? result : (result as WebAssembly.WebAssemblyInstantiatedSource).instance;
    if (isLuaModule(instance.exports)) {
      exports = instance.exports;
    }
    return result;
  };
  WebAssembly.instantiate = watched as typeof instantiate;
  try {
    const factory = new LuaFactory();
    const lua = await factory.getLuaModule();
    if (exports === undefined) {
      throw new Error("The Lua module's exports could not be reached");
    }
    return { factory, lua, exports };
  } finally {
    WebAssembly.instantiate = instantiate;
  }
}

function isLuaModule(exports: WebAssembly.Exports): exports is WebAssembly.Exports & LuaModuleExports {
  return (
    typeof exports.lua_newstate === 'function' &&
    typeof exports.realloc === 'function' &&
    typeof exports.free === 'function'
  );
}
