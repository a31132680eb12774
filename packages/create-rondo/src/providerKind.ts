/** The language the project's provider is written in. */
export type ProviderKind = 'typescript' | 'prolog';
