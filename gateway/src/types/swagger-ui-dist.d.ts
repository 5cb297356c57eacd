declare module 'swagger-ui-dist/absolute-path.js' {
  /** The folder holding swagger-ui's built assets. */
  const swaggerUiAssetsPath: () => string;
  export default swaggerUiAssetsPath;
}
