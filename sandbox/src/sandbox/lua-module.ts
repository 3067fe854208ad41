/**
 * Loads wasmoon's Lua module for one thread, with the instruction counter patched into its VM
 * (instruction-counter.ts), and keeps hold of its raw WASM exports. wasmoon hands out only
 * Emscripten's JS wrappers of them, and a JS function placed where Lua calls it (the allocator)
 * makes every call cross into JS; the memory meter needs the module's own realloc and free to stay
 * inside WASM. Emscripten instantiates the module through WebAssembly.instantiate and passes no
 * option to intercept it, so WebAssembly.instantiate is watched while the factory loads: the
 * module's bytes are patched on their way in, and the instance whose exports include lua_newstate
 * is the one.
 */
import { LuaFactory, type LuaWasm } from 'wasmoon';
import { counterGlobals, patchInstructionCounter, type InstructionCounter } from './instruction-counter.ts';
import type { LuaModuleExports } from './memory-meter.ts';

export interface LuaModule {
  factory: LuaFactory;
  lua: LuaWasm;
  exports: LuaModuleExports;
  /** Null when the module is not one the counter can be patched into: then only the count hook counts. */
  counter: InstructionCounter | null;
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
  let exports: (WebAssembly.Exports & LuaModuleExports) | undefined;
  const watched = async (...args: Parameters<typeof instantiate>) => {
    const [source, imports] = args;
    const patched = ArrayBuffer.isView(source) || source instanceof ArrayBuffer ? patchedBytes(source) : null;
    const result: unknown = await Reflect.apply(instantiate, WebAssembly, patched ? [patched, imports] : args);
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
    return { factory, lua, exports, counter: counterGlobals(exports) };
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

function patchedBytes(source: ArrayBuffer | ArrayBufferView): Uint8Array<ArrayBuffer> | null {
  const bytes = ArrayBuffer.isView(source)
    ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
    : new Uint8Array(source);
  return patchInstructionCounter(bytes);
}
