import type { Catalog } from './catalog.js';

/**
 * Values derived from one catalog, such as list pages in an era's wire form, kept until the
 * server's catalog changes (a provider's lists were read again): a long list is then built and
 * serialised once per change rather than once per request. At most `limit` values are kept.
 */
export class CatalogMemo<V> {
  private catalog: Catalog | undefined;
  private readonly values = new Map<string, V>();

  constructor(private readonly limit = 64) {}

  /** The value of `key` for `catalog`, built by `build` when not known yet. */
  get(catalog: Catalog, key: string, build: () => V): V {
    if (catalog !== this.catalog) {
      this.values.clear();
      this.catalog = catalog;
    }
    let value = this.values.get(key);
    if (value === undefined) {
      value = build();
      if (this.values.size >= this.limit) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }
}
