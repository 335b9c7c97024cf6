export { PUBLIC_PERMISSIONS as PERMISSIONS } from '../kernel/key-scopes.ts';
