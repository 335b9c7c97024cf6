/**
 * Notifications: who follows an idea, and the e-mails its followers get when its status changes
 * or it ships (queued in the change's transaction, sent by the outbox worker). What other
 * resources (the board pages: following and unfollowing) may import.
 */
export { countFollowers, follow, unfollow, isFollowing, listFollowers, moveFollowers } from './store.ts';
// A person's data (resources/people/service.ts): their follows and e-mails, listed and erased.
export { eraseNotificationsOfUsers, notificationsOfUsers } from './store.ts';
