DROP TABLE webhook_deliveries;
--bun:split
DROP TABLE webhooks;
