import { createTheme } from '@mantine/core';

/** Mantine's defaults, with a primary colour dark enough for AA contrast on white text. */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 7,
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  components: {
    Table: { defaultProps: { verticalSpacing: 'xs', highlightOnHover: true } },
  },
});
