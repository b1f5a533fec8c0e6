// Types of the vendored build: the same pinned version's declarations in node_modules
// (package.json devDependencies). Used by `make jscheck` only; the browser never loads it.
export * from "preact";
