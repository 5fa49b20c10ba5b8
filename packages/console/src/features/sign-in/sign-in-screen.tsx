import { Button, Center, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect } from 'react';
import { FormErrors } from '../../components/FormErrors';
import { PasswordField } from '../../components/PasswordField';
import { FORM_ERROR, placeErrors } from '../../lib/errors';
import { submitWith } from '../../lib/form-submit';
import { useSignIn } from './api';
import { safeRedirect } from './search';

export function SignInScreen() {
  const search = useSearch({ from: '/sign-in' });
  const navigate = useNavigate();
  const signIn = useSignIn();
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
    try {
      const { staff } = await signIn.mutateAsync({ email: values.email.trim(), password: values.password });
      if (staff) await navigate({ href: safeRedirect(search.redirect, window.location.origin), replace: true });
      else refuse({ [FORM_ERROR]: 'This account has no access to the console. Sign in with a staff account.' });
    } catch (error) {
      refuse(placeErrors(error, { inputs: ['email', 'password'] }));
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
            <FormErrors form={form} title="Not signed in" />
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              data-autofocus
              autoFocus
              {...form.getInputProps('email')}
            />
            <PasswordField label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
            <Button type="submit" loading={form.submitting} fullWidth>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
