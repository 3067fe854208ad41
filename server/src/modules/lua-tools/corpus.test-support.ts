// The Luau corpus helpers live beside the parser, which the corpus tests first; kept importable here.
export * from '@moonrelay/lua/luau/corpus.test-support.ts';
