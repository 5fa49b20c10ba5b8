import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { describe, fieldErrors } from '../../lib/errors';
import { useSignIn } from './api';
import { safeRedirect } from './search';
import { submitWith } from '../../lib/form-submit';

export function SignInScreen() {
  const search = useSearch({ from: '/sign-in' });
  const navigate = useNavigate();
  const signIn = useSignIn();
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

  const submit = submitWith(form, async (values, refuse) => {
    setFailure(null);
    try {
      const { staff } = await signIn.mutateAsync({ email: values.email.trim(), password: values.password });
      if (!staff) {
        setFailure('This account has no access to the console. Sign in with a staff account.');
        return;
      }
      await navigate({ href: safeRedirect(search.redirect, window.location.origin), replace: true });
    } catch (error) {
      refuse(fieldErrors(error));
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
