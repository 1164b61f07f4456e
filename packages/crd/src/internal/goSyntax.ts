/**
 * The earlier name of {@link invalidJSON}, kept for the modules that import it from here. Bad values
 * of Go struct types print as Go's `json.Marshal` renders them (see `goJSON.ts`).
 */
export { invalidJSON as invalidGo } from './goJSON.js';
