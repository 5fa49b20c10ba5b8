import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { api } from '../api';
import { describe, fieldErrors } from '../lib/errors';
import { isStaff, sessionEnd, sessionQuery } from '../session';

/** Only a path inside the console is followed after sign-in (never another origin). */
function safeRedirect(target: string | undefined): string {
  if (!target) return '/';
  try {
    const url = new URL(target, window.location.origin);
    if (url.origin !== window.location.origin) return '/';
    const path = url.pathname.replace(/^\/admin/, '') || '/';
    return `${path}${url.search}`;
  } catch {
    return '/';
  }
}

export function SignInScreen() {
  const search = useSearch({ from: '/sign-in' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (/^\S+@\S+\.\S+$/.test(value.trim()) ? null : 'Enter the email address of your staff account'),
      password: (value) => (value.length > 0 ? null : 'Enter your password'),
    },
  });

  useEffect(() => {
    document.title = 'Sign in · Commerce console';
  }, []);

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await api.POST('/api/v1/auth/login', { body: { email: values.email.trim(), password: values.password } });
      queryClient.clear();
      const user = await queryClient.fetchQuery(sessionQuery);
      if (!isStaff(user)) {
        // A customer account has a session now, but no business here: end it.
        await api.DELETE('/api/v1/auth/session').catch(() => undefined);
        queryClient.clear();
        setFailure('This account has no access to the console. Sign in with a staff account.');
        return;
      }
      sessionEnd.bySignOut = false;
      await navigate({ href: safeRedirect(search.redirect), replace: true });
    } catch (error) {
      form.setErrors(fieldErrors(error));
      setFailure(describe(error));
    }
  });

  return (
    <Center mih="100vh" bg="gray.0" p="md">
      <Paper component="main" withBorder shadow="sm" p="xl" radius="md" w="100%" maw={400}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <div>
              <Title order={1} size="h2">
                Commerce console
              </Title>
              <Text c="dimmed" size="sm">
                Sign in with your staff account.
              </Text>
            </div>
            {failure ? (
              <Alert color="red" role="alert" title="Not signed in">
                {failure}
              </Alert>
            ) : null}
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              data-autofocus
              autoFocus
              {...form.getInputProps('email')}
            />
            <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
            <Button type="submit" loading={form.submitting} fullWidth>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
