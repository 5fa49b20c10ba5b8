import { Stack } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';
import { ExportPanel } from './export-panel';
import { ImportPanel } from './import-panel';

/** Bulk data in and out: the products import (with stock counts) and the CSV exports. */
export function TransferScreen() {
  return (
    <>
      <PageHeader title="Import and export" subtitle="Products, variants and stock in from CSV; products, orders and accounts out" />
      <Stack gap="md">
        <ImportPanel />
        <ExportPanel />
      </Stack>
    </>
  );
}
