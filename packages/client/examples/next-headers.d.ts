// Just enough of Next.js (15 and later: `cookies()` is async) for the server component example to type-check without installing Next.
declare module 'next/headers' {
  interface RequestCookies {
    get(name: string): { name: string; value: string } | undefined;
    set(name: string, value: string, options?: { httpOnly?: boolean; secure?: boolean; sameSite?: 'lax' | 'strict' | 'none'; path?: string; expires?: Date }): void;
    toString(): string;
  }
  export function cookies(): Promise<RequestCookies>;
}
