// ESLint flat config for the web pages' ES modules and their node tests.
// The rules beyond @eslint/js "recommended" are explained in docs/web.md ("JS checks").
import js from "@eslint/js";
import globals from "globals";

// Browser globals that are easy to use by accident (a missing declaration still
// compiles because `window.name`, `window.status`… exist).
const CONFUSING_GLOBALS = [
  "event", "name", "status", "length", "close", "closed", "open", "parent", "top", "self",
  "origin", "print", "stop", "find", "external", "opener", "frames", "scroll",
];

export default [
  { ignores: ["node_modules/", ".venv/", ".venv-learn/", ".tools/", "build/", "dist/"] },
  js.configs.recommended,
  {
    files: ["src/spillebord/web/static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "all", argsIgnorePattern: "^_", caughtErrors: "all" }],
      "no-implicit-globals": "error",
      "no-restricted-globals": ["error", ...CONFUSING_GLOBALS],
      "no-shadow": ["error", { builtinGlobals: false, hoist: "functions" }],
      "no-use-before-define": ["error", { functions: false, classes: true, variables: false }],
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "always"],
      "no-unused-expressions": "error",
      "no-useless-assignment": "error",
      "no-console": ["error", { allow: ["error"] }],
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-param-reassign": "off",
      "consistent-return": "error",
    },
  },
  {
    // The node tests: node's globals plus the browser's, which tests/js/dom.js installs.
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "all", argsIgnorePattern: "^_", caughtErrors: "all" }],
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "always"],
    },
  },
];
