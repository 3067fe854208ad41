import { Box, Center, Image } from '@chakra-ui/react';
import { ImageOff } from 'lucide-react';
import { useState } from 'react';

/** A catalogue script's game image, or a plain placeholder when it has none or it does not load. */
export function ScriptImage({ src, alt }: { src: string | null; alt: string }) {
  const [failed, setFailed] = useState(false);
  return (
    <Box aspectRatio={16 / 9} bg="bg.muted" overflow="hidden" borderTopRadius="l3">
      {src && !failed ? (
        <Image
          src={src}
          alt={alt}
          width="100%"
          height="100%"
          objectFit="cover"
          loading="lazy"
          referrerPolicy="no-referrer"
          onError={() => setFailed(true)}
        />
      ) : (
        <Center height="100%" color="fg.subtle" data-testid="image-placeholder">
          <ImageOff size={32} aria-hidden />
        </Center>
      )}
    </Box>
  );
}
