// Entry point of the warehouse drivers: one `Warehouse` per connection config, and a registry that
// keeps one pooled Warehouse per connection key.
export { WarehouseError } from './errors.js';
export { openWarehouse } from './open.js';
export type { PoolOptions } from './pool-options.js';
export { WarehouseRegistry } from './registry.js';
export * from './types.js';
