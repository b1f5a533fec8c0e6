// ESLint for the browser client (`make jscheck`). The vendored libraries are not ours.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "src/reverie/web/static/vendor/", ".venv/", "artifacts/"] },
  js.configs.recommended,
  {
    files: ["src/reverie/web/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none" }],
      "no-implicit-globals": "error",
      "no-shadow": ["error", { builtinGlobals: false }],
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-throw-literal": "error",
      "no-self-compare": "error",
      "no-unmodified-loop-condition": "error",
      "no-unused-private-class-members": "error",
      "no-use-before-define": ["error", { functions: false, classes: true, variables: true }],
      "no-restricted-syntax": [
        "error",
        { selector: "MemberExpression[property.name='innerHTML']", message: "Data enters the page as text: use h()." },
        { selector: "MemberExpression[property.name='outerHTML']", message: "Data enters the page as text: use h()." },
        { selector: "CallExpression[callee.property.name='insertAdjacentHTML']", message: "Data enters the page as text: use h()." },
      ],
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
