import { ActionIcon, Button, FileButton, Group, Image, Menu, Stack, Text, TextInput } from '@mantine/core';
import { IconPhoto, IconPhotoPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { notifyError } from '../../lib/notify';
import { uploadProductImage } from './products-api';

export interface ImageValue {
  url: string;
  alt_text: string;
}

/**
 * A product's or variant's images: each with its alt text and a way to remove it, an upload (signed
 * credentials to the image host, products folder) and, for a variant, its product's images to pick
 * from (the red shirt's photo for the red variants, without uploading it again). The images are
 * saved with the form.
 */
export function ImagesField({
  images,
  onAdd,
  onRemove,
  altTextProps,
  label = 'Images',
  choices = [],
}: {
  images: ImageValue[];
  onAdd: (image: ImageValue) => void;
  onRemove: (index: number) => void;
  /** The form's input props for image `index`'s alt text (its value, change handler and error). */
  altTextProps: (index: number) => object;
  label?: string;
  /** Images already stored that may be added as they are (a variant's product's). */
  choices?: readonly ImageValue[];
}) {
  const pickable = choices.filter((choice) => !images.some((image) => image.url === choice.url));
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
        {pickable.length > 0 ? (
          <Menu position="bottom-start" width={260}>
            <Menu.Target>
              <Button variant="default" leftSection={<IconPhoto size={16} />}>
                Use a product image
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {pickable.map((choice, index) => (
                <Menu.Item
                  key={choice.url}
                  leftSection={<Image src={choice.url} alt="" h={40} w={48} fit="cover" radius="sm" />}
                  onClick={() => onAdd({ url: choice.url, alt_text: choice.alt_text })}
                >
                  <bdi>{choice.alt_text || `Product image ${index + 1}`}</bdi>
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        ) : null}
      </Group>
    </div>
  );
}
