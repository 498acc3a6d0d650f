import { createIntegration } from '@gitbook/runtime';
import type { SpaceContentUpdatedEvent } from '@gitbook/api';

// Posts a comment on a space each time its content moves to a new
// revision, naming that revision.
export default createIntegration({
    events: {
        space_content_updated: async (event: SpaceContentUpdatedEvent, context) => {
            console.log(`space ${event.spaceId} moved to revision ${event.revisionId}`);
            const { data: comment } = await context.api.spaces.postCommentInSpace(event.spaceId, {
                body: { markdown: `Merged revision ${event.revisionId}` },
            });
            console.log(`posted comment ${comment.id}`);
        },
    },
});
