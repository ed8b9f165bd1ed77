/** esbuild's `text` loader: a `.graphql` file imports as its text. */
declare module '*.graphql' {
  const text: string;
  export default text;
}
