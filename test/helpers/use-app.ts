import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Role } from '../../src/db/schema.js';
import { startTestApp, type RunningApp, type TestApp } from './app.js';
import type { Client } from './client.js';
import { signInAs, signUp } from './factories.js';
import { startMailServer, type MailCatcher } from './mail.js';

/** A client holding a session, with the account it is signed in as. */
export type SignedIn = Client & { readonly user: any; readonly email: string };

const FIELD = { CUSTOMER: 'customer', ADMIN: 'admin', SUPER_ADMIN: 'superAdmin' } as const;
type Field = typeof FIELD;

export interface UseAppOptions<R extends Role> {
  /** Environment on top of startTestApp's defaults; a function is called when the app starts (for values known only then). */
  env?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** Accounts signed in before the tests, one per role: `t.customer` (registered over HTTP), `t.admin`, `t.superAdmin`. */
  as?: readonly R[];
  /** A mail catcher started first, SMTP_URL pointing at it (`t.mail`). */
  mail?: boolean;
  /** Routes or hooks added to the app before it listens (startTestApp's `setup`). */
  setup?: (app: FastifyInstance) => void;
  /** File-level data the tests share, made once the app is up and the accounts are signed in. */
  seed?: (t: AppFixture<R>) => Promise<void>;
}

export type AppFixture<R extends Role = never> = RunningApp & {
  /** A client with no session, shared by the tests (a new one each: `t.client()`). */
  readonly anonymous: Client;
  /** The mail catcher (only with `mail: true`). */
  readonly mail: MailCatcher;
} & { readonly [K in R as Field[K]]: SignedIn };

/**
 * A running app for the tests of a file (or of a `describe`): started in a
 * `before` hook it registers itself, closed in its `after` hook.
 *
 *   const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' }, as: ['ADMIN'] });
 *   test('...', async () => { await t.admin.post(...); await signUp(t); });
 *
 * Read its fields inside tests, a `describe`'s hooks or `seed`, not at load
 * time and not in another file-level `before` (node:test runs those
 * alongside this one, see fileDatabase() in service.ts).
 */
export function useApp<const R extends Role = never>(options: UseAppOptions<R> = {}): AppFixture<R> {
  const state: { app?: TestApp; anonymous?: Client; mail?: MailCatcher; accounts: Partial<Record<Role, SignedIn>> } = { accounts: {} };

  const started = (): TestApp => {
    if (!state.app) throw new Error('useApp(): the app is not started yet (read its fields inside tests or describe hooks)');
    return state.app;
  };
  const account = (role: Role) => () => {
    started();
    const signedIn = state.accounts[role];
    if (!signedIn) throw new Error(`useApp(): no ${role} account (pass as: ['${role}'])`);
    return signedIn;
  };

  const fixture = {
    get app() {
      return started().app;
    },
    get db() {
      return started().db;
    },
    get config() {
      return started().config;
    },
    get clock() {
      return started().clock;
    },
    get baseUrl() {
      return started().baseUrl;
    },
    get queries() {
      return started().queries;
    },
    get statements() {
      return started().statements;
    },
    client: () => started().client(),
    get anonymous() {
      return (state.anonymous ??= started().client());
    },
    get mail() {
      if (!state.mail) throw new Error('useApp(): no mail catcher (pass mail: true)');
      return state.mail;
    },
  };
  for (const [role, field] of Object.entries(FIELD))
    Object.defineProperty(fixture, field, { get: account(role as Role), enumerable: true });
  const t = fixture as unknown as AppFixture<R>;

  before(async () => {
    if (options.mail) state.mail = await startMailServer();
    const env = {
      ...(state.mail ? { SMTP_URL: state.mail.url } : {}),
      ...(typeof options.env === 'function' ? await options.env() : options.env),
    };
    state.app = await startTestApp(env, { setup: options.setup });
    for (const role of options.as ?? []) {
      const { client, user, email } = role === 'CUSTOMER' ? await signUp(state.app) : await signInAs(state.app, role);
      state.accounts[role] = Object.assign(client, { user, email });
    }
    await options.seed?.(t);
  });
  after(async () => {
    try {
      await state.app?.close();
    } finally {
      await state.mail?.close();
    }
  });
  return t;
}
