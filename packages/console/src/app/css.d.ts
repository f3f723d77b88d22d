// esbuild bundles the stylesheet main.tsx imports into its own CSS file.
declare module '*.css';
