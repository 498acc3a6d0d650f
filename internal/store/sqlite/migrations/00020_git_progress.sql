-- How far a space's running Git Sync operation has come, written by the
-- replica running it (at most about once a second) so that any replica
-- can tell: its phase, the Git objects and bytes received, the files
-- stored.

-- +goose Up
ALTER TABLE space_git_sync ADD COLUMN progress_phase TEXT NOT NULL DEFAULT '';
ALTER TABLE space_git_sync ADD COLUMN progress_objects BIGINT NOT NULL DEFAULT 0;
ALTER TABLE space_git_sync ADD COLUMN progress_objects_total BIGINT NOT NULL DEFAULT 0;
ALTER TABLE space_git_sync ADD COLUMN progress_bytes BIGINT NOT NULL DEFAULT 0;
ALTER TABLE space_git_sync ADD COLUMN progress_files BIGINT NOT NULL DEFAULT 0;
ALTER TABLE space_git_sync ADD COLUMN progress_files_total BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE space_git_sync DROP COLUMN progress_files_total;
ALTER TABLE space_git_sync DROP COLUMN progress_files;
ALTER TABLE space_git_sync DROP COLUMN progress_bytes;
ALTER TABLE space_git_sync DROP COLUMN progress_objects_total;
ALTER TABLE space_git_sync DROP COLUMN progress_objects;
ALTER TABLE space_git_sync DROP COLUMN progress_phase;
