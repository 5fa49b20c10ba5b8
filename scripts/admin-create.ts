/**
 * `npm run admin:create -- --email E --role SUPER_ADMIN|ADMIN [--first-name F --last-name L]`
 * Creates an administrator (or raises an existing account to that role).
 * The password comes from ADMIN_PASSWORD, else it is prompted for without echo.
 */
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';
import { Type } from 'typebox';
import { hashPassword } from '../src/lib/password.js';
import { systemClock } from '../src/lib/clock.js';
import { upsertAdministrator } from '../src/identity/repository.js';
import { isPasswordTooSimple, normalizeEmail } from '../src/identity/rules.js';
import { Email, Name } from '../src/identity/schemas.js';
import { validatorCompiler } from '../src/lib/validation.js';
import { writeAudit } from '../src/audit/audit-log.js';
import { transaction } from '../src/db/transaction.js';
import { openDatabase } from './database.js';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    role: { type: 'string' },
    'first-name': { type: 'string', default: 'Store' },
    'last-name': { type: 'string', default: 'Admin' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const email = values.email ? normalizeEmail(values.email) : fail('--email is required');
// The rules the API holds these fields to (lengths, one visible line, no disguising characters), checked by its own validator.
const Arguments = Type.Object({ email: Email, 'first-name': Name, 'last-name': Name });
const valid = validatorCompiler({ schema: Arguments, httpPart: 'body', method: 'POST', url: 'admin:create' });
if (!valid({ email, 'first-name': values['first-name'], 'last-name': values['last-name'] })) {
  const errors = (valid as unknown as { errors?: { instancePath: string; message?: string }[] }).errors ?? [];
  fail(errors.map((error) => `--${error.instancePath.slice(1)} ${error.message ?? 'is not valid'}`).join('\n'));
}
const role = values.role;
if (role !== 'SUPER_ADMIN' && role !== 'ADMIN') fail('--role must be SUPER_ADMIN or ADMIN');

async function promptPassword(): Promise<string> {
  if (!process.stdin.isTTY) fail('Set ADMIN_PASSWORD or run in a terminal to be prompted');
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  process.stdout.write('Password: ');
  // Mute the echo of typed characters.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
  const answer = await new Promise<string>((resolve) => rl.question('', resolve));
  rl.close();
  process.stdout.write('\n');
  return answer;
}

const password = process.env.ADMIN_PASSWORD ?? (await promptPassword());
if (password.length < 8 || password.length > 128 || isPasswordTooSimple(password)) {
  fail('The password needs 8-128 characters mixing at least two of lower case, upper case, digits and symbols');
}

const { config, db, close } = await openDatabase();
try {
  const passwordHash = await hashPassword(password, config.passwordHashCost);
  const user = await transaction(db, async (trx) => {
    const row = await upsertAdministrator(
      trx,
      { email, passwordHash, firstName: values['first-name']!, lastName: values['last-name']!, phoneNumber: null, role },
      systemClock.now(),
    );
    await writeAudit(
      trx,
      { actor: null, meta: { requestId: 'cli', ip: 'cli', userAgent: 'admin:create' } },
      {
        action: 'user.admin_create',
        entityType: 'user',
        entityPublicId: row.public_id,
        changes: { after: { email, role } },
      },
    );
    return row;
  });
  console.log(`${user.role} ${user.email} (${user.public_id}) is ready to sign in`);
} finally {
  await close();
}
