// The few Bun and Deno globals the deploy examples use, so they typecheck without either
// runtime's type package (an app targeting one runtime installs `@types/bun` or uses Deno's own).
declare const Bun: {
  env: Record<string, string | undefined>;
  serve(options: {
    port: number;
    hostname?: string;
    idleTimeout?: number;
    fetch(request: Request): Response | Promise<Response>;
  }): { port: number; stop(): void };
};

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { port: number; hostname?: string; onListen?(address: { port: number }): void },
    handler: (request: Request) => Response | Promise<Response>,
  ): { shutdown(): Promise<void> };
};
