// Vite's `?url&no-inline` import of a font file (vite/client), which the shared tsconfig does not load.
declare module '*.woff2?url&no-inline' {
  const url: string;
  export default url;
}
