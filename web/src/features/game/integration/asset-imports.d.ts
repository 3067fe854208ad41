// Vite's own declaration of this import form (vite/client), which the shared tsconfig does not load.
declare module '*?url&no-inline' {
  const url: string;
  export default url;
}
