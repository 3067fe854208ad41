import { Box, Button, defineStyle, Link, Table, Text } from '@chakra-ui/react';
import { Link2Off } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { ScriptShare } from '@moonrelay/contract/shares';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useRowsInView } from '../../../lib/rows-in-view.ts';
import type { Can } from '../../../lib/team-access.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useStopSharing } from '../api/shares.ts';
import { SHARE_TEXT } from './share-text.ts';

/** Each row's height in pixels: fixed, so the list knows where any row is without drawing it. */
const ROW_HEIGHT = 52;
const rowHeight = () => ROW_HEIGHT;
const shareId = (share: ScriptShare) => share.id;
/**
 * Rows drawn past each edge of the view: Tab always has a next Stop sharing to reach, and the
 * sticky header's height, which the row positions leave out, is covered.
 */
const OVERSCAN = 8;

/**
 * Set once on the table: a row's height and its cells' layout by class, and a link whose maker's
 * account is gone told by `data-gone`, not by props that differ from row to row.
 */
const SHARES_CSS = defineStyle({
  '& tbody tr[data-share-id]': { height: `${ROW_HEIGHT}px` },
  '& td.share-script': { maxW: '16rem', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  '& td.share-created': { whiteSpace: 'nowrap' },
  '& td.share-actions': { textAlign: 'end' },
  '& .share-by[data-gone]': { color: 'fg.muted', fontStyle: 'italic' },
});

interface Props {
  shares: readonly ScriptShare[];
  /** Settings lists every script's links with the script's name; the editor's dialog only its script's. */
  showScript: boolean;
  /** Whether the member's role allows stopping a link (scripts.write), and why not. */
  stop: Can;
  emptyText: string;
  /** A link was stopped (the editor's dialog then hides it, were it the one it shows). */
  onStopped?(share: ScriptShare): void;
}

/**
 * Share links, newest first: when each was made and by whom, with Stop sharing. A team can have
 * many scripts with many links each, so only the rows in view are drawn, as the Players list does.
 * Stopping a link cannot be undone (whoever has it loses the script), so it is confirmed first, in
 * one dialog for the whole list. A stopped link's row goes with its button; the focus stays on the list.
 */
export function SharesTable({ shares, showScript, stop, emptyText, onStopped }: Props) {
  const stopSharing = useStopSharing();
  const list = useRef<HTMLDivElement>(null);
  // Kept after the confirmation closes, so its text stays while it fades out.
  const [asking, setAsking] = useState<ScriptShare | null>(null);
  const [confirming, setConfirming] = useState(false);

  const askToStop = (share: ScriptShare) => {
    setAsking(share);
    setConfirming(true);
  };
  const confirmStop = () => {
    if (!asking) return;
    const share = asking;
    stopSharing.mutate(share.id, {
      onSuccess: () => {
        setConfirming(false);
        // A task later: the closing confirmation hands the focus back to the button that opened
        // it, which went with its row.
        setTimeout(() => list.current?.focus(), 0);
        notify({ title: SHARE_TEXT.stopped, description: SHARE_TEXT.stoppedDetail(share.scriptName) });
        onStopped?.(share);
      },
      // The confirmation stays open, to try again or cancel.
      onError: (error) =>
        notify({ type: 'error', title: 'Error', description: messageOf(error, SHARE_TEXT.stopFailed) }),
    });
  };
  const stopping = stopSharing.isPending ? stopSharing.variables : undefined;

  return (
    <Box ref={list} tabIndex={-1} outline="none" aria-label={SHARE_TEXT.linksLabel} role="region">
      {shares.length === 0 ? (
        <Text color="fg.muted">{emptyText}</Text>
      ) : (
        <ShareRows shares={shares} showScript={showScript} stop={stop} stopping={stopping} onStop={askToStop} />
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => !stopSharing.isPending && setConfirming(open)}
        title={SHARE_TEXT.stopTitle}
        confirmLabel={SHARE_TEXT.stop}
        pendingLabel={SHARE_TEXT.stopping}
        pending={stopSharing.isPending}
        onConfirm={confirmStop}
      >
        {asking ? SHARE_TEXT.stopBody(asking.scriptName, formatDateTime(asking.createdAt)) : null}
      </ConfirmDialog>
    </Box>
  );
}

/**
 * The table in its scroll box, which draws only the rows in view: spacer rows (hidden from screen
 * readers) stand in for the others, and each row says its place in the whole table.
 */
function ShareRows({
  shares,
  showScript,
  stop,
  stopping,
  onStop,
}: Pick<Props, 'shares' | 'showScript' | 'stop'> & { stopping: string | undefined; onStop(share: ScriptShare): void }) {
  const { scrollerRef, tabIndex, drawn, before, after } = useRowsInView(shares, {
    keyOf: shareId,
    estimateSize: rowHeight,
    overscan: OVERSCAN,
    screenful: ROW_HEIGHT * 10,
  });
  return (
    // No scroll anchoring: the browser keeping a row in place as the space above changes would scroll
    // again. A tab stop while it scrolls, inside the region that names the links.
    <Box
      ref={scrollerRef}
      tabIndex={tabIndex}
      maxH="min(50vh, 26rem)"
      overflow="auto"
      overflowAnchor="none"
      focusVisibleRing="inside"
      borderWidth="1px"
      borderRadius="md"
    >
      <Table.Root size="sm" stickyHeader css={SHARES_CSS} aria-rowcount={shares.length + 1}>
        <Table.Header>
          <Table.Row aria-rowindex={1}>
            {showScript && <Table.ColumnHeader>{SHARE_TEXT.script}</Table.ColumnHeader>}
            <Table.ColumnHeader>{SHARE_TEXT.created}</Table.ColumnHeader>
            <Table.ColumnHeader>{SHARE_TEXT.by}</Table.ColumnHeader>
            <Table.ColumnHeader />
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {before > 0 && <tr aria-hidden style={{ height: before }} />}
          {drawn.map(({ index }) => {
            const share = shares[index]!;
            return (
              <ShareRow
                key={share.id}
                share={share}
                index={index}
                showScript={showScript}
                stop={stop}
                stopping={stopping === share.id}
                onStop={onStop}
              />
            );
          })}
          {after > 0 && <tr aria-hidden style={{ height: after }} />}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}

function ShareRow({
  share,
  index,
  showScript,
  stop,
  stopping,
  onStop,
}: {
  share: ScriptShare;
  index: number;
  showScript: boolean;
  stop: Can;
  stopping: boolean;
  onStop(share: ScriptShare): void;
}) {
  const created = formatDateTime(share.createdAt);
  return (
    <Table.Row data-testid="share-row" data-share-id={share.id} aria-rowindex={index + 2}>
      {showScript && (
        <Table.Cell className="share-script">
          <Link asChild fontWeight="medium" title={SHARE_TEXT.openScript(share.scriptName)}>
            <RouterLink to={`/editor?id=${encodeURIComponent(share.scriptId)}`}>{share.scriptName}</RouterLink>
          </Link>
        </Table.Cell>
      )}
      <Table.Cell className="share-created">{created}</Table.Cell>
      <Table.Cell>
        <span className="share-by" data-gone={share.createdBy === null || undefined}>
          {share.createdBy ?? SHARE_TEXT.deletedAccount}
        </span>
      </Table.Cell>
      <Table.Cell className="share-actions">
        <Button
          size="xs"
          variant="outline"
          colorPalette="red"
          onClick={() => onStop(share)}
          loading={stopping}
          loadingText={SHARE_TEXT.stopping}
          disabled={!stop.allowed}
          title={stop.reason}
          aria-label={SHARE_TEXT.stopLabel(share.scriptName, created)}
        >
          <Link2Off /> {SHARE_TEXT.stop}
        </Button>
      </Table.Cell>
    </Table.Row>
  );
}
