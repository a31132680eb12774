export { default } from '@rondo/tooling/eslint';
