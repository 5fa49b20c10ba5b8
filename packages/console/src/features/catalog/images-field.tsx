import { ActionIcon, Button, FileButton, Group, Image, Stack, Text, TextInput } from '@mantine/core';
import { IconPhotoPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { notifyError } from '../../lib/notify';
import { uploadProductImage } from './products-api';

export interface ImageValue {
  url: string;
  alt_text: string;
}

/**
 * A product's or variant's images: each with its alt text and a way to remove it, and an upload
 * (signed credentials to the image host, products folder). The images are saved with the form.
 */
export function ImagesField({
  images,
  onAdd,
  onRemove,
  altTextProps,
  label = 'Images',
}: {
  images: ImageValue[];
  onAdd: (image: ImageValue) => void;
  onRemove: (index: number) => void;
  /** The form's input props for image `index`'s alt text (its value, change handler and error). */
  altTextProps: (index: number) => object;
  label?: string;
}) {
  const [uploading, setUploading] = useState(false);
  const add = async (file: File | null) => {
    if (!file) return;
    setUploading(true);
    try {
      const uploaded = await uploadProductImage(file);
      onAdd({ url: uploaded.url, alt_text: '' });
    } catch (error) {
      notifyError(error, 'Image not uploaded');
    } finally {
      setUploading(false);
    }
  };
  return (
    <div>
      <Text size="sm" fw={500} mb={4}>
        {label}
      </Text>
      <Group gap="sm" align="flex-start">
        {images.map((image, index) => (
          <Stack key={image.url} gap={4} w={120}>
            <Image src={image.url} alt={image.alt_text || `Image ${index + 1}`} h={96} w={120} fit="cover" radius="sm" />
            <TextInput size="xs" aria-label={`Alt text of image ${index + 1}`} placeholder="Alt text" {...altTextProps(index)} />
            <ActionIcon variant="subtle" color="red" aria-label={`Remove image ${index + 1}`} onClick={() => onRemove(index)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Stack>
        ))}
        <FileButton onChange={(file) => void add(file)} accept="image/png,image/jpeg,image/gif,image/webp">
          {(props) => (
            <Button {...props} variant="default" loading={uploading} leftSection={<IconPhotoPlus size={16} />}>
              Upload image
            </Button>
          )}
        </FileButton>
      </Group>
    </div>
  );
}
